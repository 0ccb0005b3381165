/**
 * @module The topics (tags) events carry: stable ids with display names in
 * English and Traditional Chinese, and the other words people search them by.
 * A keyword matches an event's topics through every one of these names.
 * Isomorphic: the server and the browser pages import it.
 *
 * Rule for `alsoKnownAs` (checked by apps/events/test/event-vocabulary.test.ts):
 * each word belongs to one topic only, and none is so generic that it would
 * describe most events (no "event", "workshop", "meetup", "talk", "工作坊").
 */

/** One topic: its id, its display names, and other words that find it (any language). */
export type Topic = { id: string; name: { en: string; zh: string }; alsoKnownAs: readonly string[] };

/** Every topic, in the order the site lists them: subjects, then languages and tools, then kinds of gathering and audiences. */
export const TOPICS = [
  {
    id: 'ai',
    name: { en: 'AI', zh: '人工智慧' },
    alsoKnownAs: ['artificial intelligence', 'machine learning', 'ML', '機器學習', 'generative AI', '生成式 AI'],
  },
  {
    id: 'llm',
    name: { en: 'LLM', zh: '大型語言模型' },
    alsoKnownAs: ['large language models', 'large language model', 'LLMs', 'RAG', 'prompt engineering', '提示工程', '語言模型'],
  },
  { id: 'agents', name: { en: 'AI agents', zh: 'AI 代理人' }, alsoKnownAs: ['agents', 'agent', 'agentic', 'tool calling', '代理人', 'AI 代理', '智慧代理'] },
  { id: 'webmcp', name: { en: 'WebMCP', zh: 'WebMCP' }, alsoKnownAs: ['MCP', 'Model Context Protocol', 'agent-ready sites'] },
  {
    id: 'frontend',
    name: { en: 'Frontend', zh: '前端' },
    alsoKnownAs: ['front-end', 'front end', 'web', 'web development', '網頁開發', '前端開發', 'JavaScript', 'CSS', 'HTML'],
  },
  {
    id: 'design',
    name: { en: 'Design', zh: '設計' },
    alsoKnownAs: [
      'UX',
      'UI',
      'user experience',
      '使用者體驗',
      'UX design',
      'UX writing',
      'UX research',
      '使用者研究',
      '介面設計',
      'design systems',
      '設計系統',
    ],
  },
  {
    id: 'accessibility',
    name: { en: 'Accessibility', zh: '無障礙' },
    alsoKnownAs: ['a11y', '無障礙設計', '無障礙網頁', 'WCAG', 'screen readers', '螢幕閱讀器'],
  },
  {
    id: 'security',
    name: { en: 'Security', zh: '資訊安全' },
    alsoKnownAs: ['資安', 'infosec', 'cybersecurity', 'web security', '網站資安', '網路安全', 'CTF', 'capture the flag', 'prompt injection'],
  },
  {
    id: 'devops',
    name: { en: 'DevOps', zh: 'DevOps' },
    alsoKnownAs: [
      'SRE',
      'site reliability engineering',
      '維運',
      'CI/CD',
      'continuous integration',
      '持續整合',
      'platform engineering',
      '平台工程',
      'incident response',
    ],
  },
  { id: 'cloud', name: { en: 'Cloud', zh: '雲端' }, alsoKnownAs: ['cloud computing', '雲端運算', 'AWS', 'GCP', 'Azure', 'serverless', 'FinOps'] },
  {
    id: 'data',
    name: { en: 'Data', zh: '資料' },
    alsoKnownAs: ['數據', 'data analysis', '資料分析', '數據分析', 'data science', '資料科學', 'data visualization', 'data viz', '資料視覺化'],
  },
  { id: 'open-data', name: { en: 'Open data', zh: '開放資料' }, alsoKnownAs: ['open government data', '政府開放資料', '開放政府'] },
  {
    id: 'chip-design',
    name: { en: 'Chip design', zh: '晶片設計' },
    alsoKnownAs: ['chip', 'chips', 'semiconductor', 'semiconductors', 'IC design', '晶片', '半導體', 'IC 設計', 'RTL', 'VLSI'],
  },
  { id: 'iot', name: { en: 'IoT', zh: '物聯網' }, alsoKnownAs: ['Internet of Things', 'sensors', '感測器', 'smart agriculture', '智慧農業'] },
  {
    id: 'embedded',
    name: { en: 'Embedded systems', zh: '嵌入式系統' },
    alsoKnownAs: ['embedded', 'microcontrollers', 'microcontroller', 'MCU', '嵌入式', '微控制器', 'firmware', '韌體', 'Arduino', 'Raspberry Pi'],
  },
  { id: 'mobile', name: { en: 'Mobile apps', zh: '行動應用' }, alsoKnownAs: ['mobile', 'app', 'apps', 'iOS', 'Android', 'App 開發', '手機 App', '行動開發'] },
  { id: 'maps', name: { en: 'Maps', zh: '地圖' }, alsoKnownAs: ['map', 'mapping', 'OpenStreetMap', 'OSM', 'GIS', '地理資訊', '圖資', 'GPS'] },
  { id: 'product', name: { en: 'Product management', zh: '產品管理' }, alsoKnownAs: ['product', 'product manager', '產品', '產品經理', '產品設計'] },
  { id: 'typescript', name: { en: 'TypeScript', zh: 'TypeScript' }, alsoKnownAs: ['型別', 'type-level programming'] },
  { id: 'python', name: { en: 'Python', zh: 'Python' }, alsoKnownAs: ['pandas', 'Jupyter', 'Django', 'FastAPI'] },
  { id: 'rust', name: { en: 'Rust', zh: 'Rust' }, alsoKnownAs: ['Rust 語言', 'rustlang'] },
  { id: 'go', name: { en: 'Go', zh: 'Go 語言' }, alsoKnownAs: ['Golang'] },
  { id: 'react', name: { en: 'React', zh: 'React' }, alsoKnownAs: ['React.js', 'ReactJS', 'Next.js'] },
  { id: 'vue', name: { en: 'Vue', zh: 'Vue' }, alsoKnownAs: ['Vue.js', 'VueJS', 'Vue 3', 'Nuxt'] },
  { id: 'flutter', name: { en: 'Flutter', zh: 'Flutter' }, alsoKnownAs: ['Dart'] },
  { id: 'graphql', name: { en: 'GraphQL', zh: 'GraphQL' }, alsoKnownAs: ['Apollo'] },
  { id: 'kubernetes', name: { en: 'Kubernetes', zh: 'Kubernetes' }, alsoKnownAs: ['k8s', 'containers', '容器', 'Docker'] },
  { id: 'databases', name: { en: 'Databases', zh: '資料庫' }, alsoKnownAs: ['database', 'PostgreSQL', 'Postgres', 'psql', 'SQL'] },
  { id: 'hackathon', name: { en: 'Hackathon', zh: '黑客松' }, alsoKnownAs: ['hackathons', 'hack', '駭客松', '黑客馬拉松'] },
  { id: 'games', name: { en: 'Games', zh: '遊戲' }, alsoKnownAs: ['game', 'game jam', 'gamedev', 'game development', '遊戲開發'] },
  {
    id: 'maker',
    name: { en: 'Maker', zh: '創客' },
    alsoKnownAs: ['makers', 'Maker Faire', '自造者', '3D printing', '3D 列印', 'robots', 'robotics', '機器人', 'electronics'],
  },
  { id: 'photography', name: { en: 'Photography', zh: '攝影' }, alsoKnownAs: ['photo', 'photos', 'astrophotography', '星空攝影', '相機', '拍照'] },
  { id: 'culture', name: { en: 'Culture', zh: '文化' }, alsoKnownAs: ['indigenous', '原住民族', '原住民', 'heritage', '古蹟', 'crafts', '工藝'] },
  { id: 'kids', name: { en: 'Kids', zh: '親子' }, alsoKnownAs: ['children', 'family', 'families', '兒童', '孩子', '小朋友', 'Scratch'] },
  { id: 'careers', name: { en: 'Careers', zh: '職涯' }, alsoKnownAs: ['career', 'jobs', '求職', '轉職', 'women in tech', '科技女性', 'mentoring'] },
  { id: 'community', name: { en: 'Community', zh: '社群' }, alsoKnownAs: ['networking', '交流', '社群交流', '聯誼'] },
  {
    id: 'remote-work',
    name: { en: 'Remote work', zh: '遠距工作' },
    alsoKnownAs: ['remote', 'working remotely', '遠端工作', 'digital nomad', '數位遊牧', 'WFH'],
  },
] as const satisfies readonly Topic[];

/** One topic's id, e.g. `"ai"`. */
export type TopicId = (typeof TOPICS)[number]['id'];

/** A display language of topic names (the same two as locations). */
export type TopicLanguage = 'en' | 'zh';

/** The ids as a non-empty list (for `z.enum`). */
export const TOPIC_IDS = TOPICS.map((topic) => topic.id) as [TopicId, ...TopicId[]];

/** Whether `value` is one of {@link TOPIC_IDS} (exact, case-sensitive: ids are lowercase-hyphen). */
export function isTopicId(value: string): value is TopicId {
  return (TOPIC_IDS as string[]).includes(value);
}

/**
 * The display name of a topic.
 *
 * @param id a known topic id.
 * @param language `"en"` (default) or `"zh"` (Traditional Chinese).
 * @returns the name, or `id` itself for an id no longer in {@link TOPICS}.
 * @example topicName('chip-design', 'zh') // "晶片設計"
 */
export function topicName(id: TopicId, language: TopicLanguage = 'en'): string {
  const topic = TOPICS.find((candidate) => candidate.id === id);
  return topic ? topic.name[language] : id;
}
