/**
 * @module Plausible extra events for testing the site at scale
 * (`npm run seed -w apps/events -- --count 500`, and a million for the
 * benchmarks): random subjects, formats, cities, venues and dates across 2027,
 * all in Asia/Taipei (+08:00). Each event carries the topics of its subject
 * (and of its format, for a hackathon) and the district of its venue when
 * known.
 *
 * Built for speed: every date string is computed once, on the first call, for
 * each possible start day, start hour and format; titles, summaries and topic
 * lists are shared between events, so an event costs a few random numbers and
 * its id.
 */
import { randomInt } from 'node:crypto';
import { DateTime } from 'luxon';
import { EVENT_LEVELS } from '../vocabulary/event-levels.ts';
import type { DistrictId, DistrictOf } from '../vocabulary/districts.ts';
import type { LocationId } from '../vocabulary/locations.ts';
import type { TopicId } from '../vocabulary/topics.ts';
import type { SeedEvent } from './event-seeds.ts';

/** What a generated event is about: the slug in its id, its words in its title, and its topics. */
type Subject = { slug: string; en: string; zh: string; topics: readonly TopicId[] };

const SUBJECTS: readonly Subject[] = [
  { slug: 'react', en: 'React', zh: 'React', topics: ['frontend', 'react'] },
  { slug: 'typescript', en: 'TypeScript', zh: 'TypeScript', topics: ['typescript'] },
  { slug: 'webmcp', en: 'WebMCP', zh: 'WebMCP', topics: ['webmcp', 'ai', 'frontend'] },
  { slug: 'accessibility', en: 'Accessibility', zh: '無障礙設計', topics: ['accessibility', 'frontend'] },
  { slug: 'data-viz', en: 'Data Visualization', zh: '資料視覺化', topics: ['data'] },
  { slug: 'kubernetes', en: 'Kubernetes', zh: 'Kubernetes', topics: ['kubernetes', 'devops', 'cloud'] },
  { slug: 'product', en: 'Product Management', zh: '產品管理', topics: ['product'] },
  { slug: 'security', en: 'Web Security', zh: '網站資安', topics: ['security'] },
  { slug: 'llm', en: 'LLM Apps', zh: '大型語言模型應用', topics: ['ai', 'llm'] },
  { slug: 'ux', en: 'UX Research', zh: '使用者研究', topics: ['design'] },
  { slug: 'postgres', en: 'PostgreSQL', zh: 'PostgreSQL', topics: ['databases'] },
  { slug: 'go', en: 'Go', zh: 'Go 語言', topics: ['go'] },
];

/** How an event is held: its title around the subject, its length, and the topics the format itself adds. */
type Format = { en: (subject: string) => string; zh: (subject: string) => string; hours: number; topics: readonly TopicId[] };

const FORMATS: readonly Format[] = [
  { en: (subject) => `${subject} Workshop`, zh: (subject) => `${subject}工作坊`, hours: 4, topics: [] },
  { en: (subject) => `${subject} Meetup`, zh: (subject) => `${subject} 小聚`, hours: 2, topics: [] },
  { en: (subject) => `${subject} Study Group`, zh: (subject) => `${subject} 讀書會`, hours: 2, topics: [] },
  { en: (subject) => `${subject} Conference`, zh: (subject) => `${subject} 年會`, hours: 8, topics: [] },
  { en: (subject) => `${subject} Hackathon`, zh: (subject) => `${subject} 黑客松`, hours: 24, topics: ['hackathon'] },
];

/** A venue and, when known, the district it is in. */
type Venue = { name: string; district?: DistrictId };

/** The venues of each location; the type keeps each district within its venue's location. */
const VENUES: { [Location in LocationId]: readonly { name: string; district?: DistrictOf<Location> }[] } = {
  taipei: [
    { name: '台北前端共學空間' },
    { name: '南港軟體園區 二期 C 棟 B1 會議室', district: 'taipei-nangang' },
    { name: '華山1914文創園區 拱廳', district: 'taipei-zhongzheng' },
    { name: '台大集思會議中心 柏拉圖廳', district: 'taipei-daan' },
  ],
  'new-taipei': [
    { name: '新北青年創業基地 板橋館', district: 'new-taipei-banqiao' },
    { name: 'Linkou Innovation Center, Hall B', district: 'new-taipei-linkou' },
  ],
  taoyuan: [
    { name: '桃園市青年事務局 青創指揮部', district: 'taoyuan-zhongli' },
    { name: '元智大學 資訊學院 R1102', district: 'taoyuan-zhongli' },
  ],
  hsinchu: [
    { name: '新竹科學園區 創新創業中心 3F', district: 'hsinchu-east' },
    { name: '清華大學 台達館 104 教室', district: 'hsinchu-east' },
  ],
  taichung: [
    { name: '審計新村 共創基地 2F', district: 'taichung-west' },
    { name: '台中文化創意產業園區 A11 展演廳', district: 'taichung-south' },
  ],
  tainan: [
    { name: '南紡共享空間 5F', district: 'tainan-east' },
    { name: '成功大學 資訊系館 65203 教室', district: 'tainan-east' },
  ],
  kaohsiung: [
    { name: '駁二藝術特區 大義倉庫 C9', district: 'kaohsiung-yancheng' },
    { name: '高雄軟體科技園區 數位內容創意中心', district: 'kaohsiung-qianzhen' },
  ],
  yilan: [{ name: '礁溪 湯圍溝 共享辦公室 2F', district: 'yilan-jiaoxi' }],
  hualien: [{ name: '花蓮文化創意產業園區 第 7 棟', district: 'hualien-hualien' }],
};

const LOCATIONS_WITH_VENUES = Object.keys(VENUES) as LocationId[];
const START_HOURS = [9, 10, 13, 14, 19] as const;
/** Start days are 2027-01-01 plus 0..363 days. */
const START_DAYS = 364;
const FEES_TWD = [0, 0, 0, 300, 500, 800, 1200, 1800] as const;
const CAPACITIES = [20, 30, 40, 60, 100, 200] as const;

/**
 * Makes `count` random events. IDs are `evt-<subject>-<city>-<8 hex>`, unique
 * within one call (the hex part walks a permutation of all 2³² values from a
 * random start) and random across calls; dates fall in 2027 with a deadline
 * two days before the start at 23:59:59 local time; a tenth of them are full.
 * Every event has at least one topic, and the district of its venue when
 * that is known.
 *
 * @param count how many events, a non-negative integer (at most 2³²).
 * @returns new objects; events of the same subject and format share their
 *   `topics` array, which must not be mutated.
 */
export function generateEvents(count: number): SeedEvent[] {
  const idBase = randomInt(2 ** 32 - 1);
  const events: SeedEvent[] = new Array<SeedEvent>(count);
  for (let index = 0; index < count; index += 1) {
    const subject = randomIndex(SUBJECTS.length);
    const format = randomIndex(FORMATS.length);
    const location = pick(LOCATIONS_WITH_VENUES);
    const venue = pick<Venue>(VENUES[location]);
    const words = eventWords(subject, format, randomIndex(2) === 0 ? 'zh' : 'en');
    const dates = eventDates(format, randomIndex(START_HOURS.length), randomIndex(START_DAYS));
    const capacity = pick(CAPACITIES);
    const event: SeedEvent = {
      id: `evt-${words.slug}-${location}-${idSuffix(idBase, index)}`,
      title: words.title,
      summary: words.summary,
      location,
      venue: venue.name,
      topics: words.topics,
      startsAt: dates.startsAt,
      endsAt: dates.endsAt,
      registrationDeadline: dates.registrationDeadline,
      feeTwd: pick(FEES_TWD),
      level: pick(EVENT_LEVELS),
      capacity,
      remainingCapacity: randomIndex(10) === 0 ? 0 : 1 + randomIndex(capacity),
    };
    if (venue.district !== undefined) event.district = venue.district;
    events[index] = event;
  }
  return events;
}

/** The 8 hex digits of the `index`-th id of one call: an odd multiplier makes `index → suffix` one-to-one modulo 2³². */
function idSuffix(base: number, index: number): string {
  return ((base + Math.imul(index, 0x9e3779b1)) >>> 0).toString(16).padStart(8, '0');
}

type EventWords = { slug: string; title: string; summary: string; topics: readonly TopicId[] };
const wordsCache = new Map<number, EventWords>();

/** The id slug, title, summary and topics of a subject held in a format, in one language (built once, then shared). */
function eventWords(subjectIndex: number, formatIndex: number, language: 'en' | 'zh'): EventWords {
  const key = (subjectIndex * FORMATS.length + formatIndex) * 2 + (language === 'zh' ? 1 : 0);
  const cached = wordsCache.get(key);
  if (cached) return cached;
  const subject = SUBJECTS[subjectIndex]!;
  const format = FORMATS[formatIndex]!;
  const words: EventWords = {
    slug: subject.slug,
    title: language === 'zh' ? format.zh(subject.zh) : format.en(subject.en),
    summary:
      language === 'zh'
        ? `與在地社群一起交流 ${subject.zh} 的實務經驗，適合想動手做的人。`
        : `Practical ${subject.en} sessions with the local community; bring questions and a laptop.`,
    topics: Object.freeze([...subject.topics, ...format.topics]),
  };
  wordsCache.set(key, words);
  return words;
}

type EventDates = { startsAt: string; endsAt: string; registrationDeadline: string };
let datesTable: EventDates[] | undefined;

/**
 * The three date strings of an event in a format starting at one of
 * START_HOURS on one of the START_DAYS, as luxon writes them in Asia/Taipei
 * (ISO 8601, +08:00, no milliseconds). The table of every combination
 * (5 formats × 5 hours × 364 days) is built on the first call.
 */
function eventDates(formatIndex: number, hourIndex: number, day: number): EventDates {
  datesTable ??= buildDatesTable();
  return datesTable[(formatIndex * START_HOURS.length + hourIndex) * START_DAYS + day]!;
}

function buildDatesTable(): EventDates[] {
  const table: EventDates[] = [];
  for (const format of FORMATS) {
    for (const hour of START_HOURS) {
      const first = DateTime.fromObject({ year: 2027, month: 1, day: 1, hour }, { zone: 'Asia/Taipei' });
      for (let day = 0; day < START_DAYS; day += 1) {
        const start = first.plus({ days: day });
        const deadline = start.minus({ days: 2 }).set({ hour: 23, minute: 59, second: 59 });
        table.push({
          startsAt: isoWithOffset(start),
          endsAt: isoWithOffset(start.plus({ hours: format.hours })),
          registrationDeadline: isoWithOffset(deadline),
        });
      }
    }
  }
  return table;
}

/** A uniformly random integer in `[0, size)`; test data, so Math.random is enough (and far cheaper than crypto per call). */
function randomIndex(size: number): number {
  return Math.floor(Math.random() * size);
}

function pick<T>(choices: readonly T[]): T {
  const choice = choices[randomIndex(choices.length)];
  if (choice === undefined) throw new Error('pick() needs at least one choice.');
  return choice;
}

function isoWithOffset(date: DateTime): string {
  return date.toISO({ suppressMilliseconds: true }) ?? '';
}
