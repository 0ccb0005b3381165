/**
 * @module Plausible extra events for testing the site at scale
 * (`npm run seed -w apps/events -- --count 500`): random topics, formats,
 * cities, venues and dates across 2027, all in Asia/Taipei (+08:00).
 */
import { randomBytes, randomInt } from 'node:crypto';
import { DateTime } from 'luxon';
import { EVENT_LEVELS } from '../vocabulary/event-levels.ts';
import type { LocationId } from '../vocabulary/locations.ts';
import type { SeedEvent } from './event-seeds.ts';

const TOPICS = [
  { slug: 'react', en: 'React', zh: 'React' },
  { slug: 'typescript', en: 'TypeScript', zh: 'TypeScript' },
  { slug: 'webmcp', en: 'WebMCP', zh: 'WebMCP' },
  { slug: 'accessibility', en: 'Accessibility', zh: '無障礙設計' },
  { slug: 'data-viz', en: 'Data Visualization', zh: '資料視覺化' },
  { slug: 'kubernetes', en: 'Kubernetes', zh: 'Kubernetes' },
  { slug: 'product', en: 'Product Management', zh: '產品管理' },
  { slug: 'security', en: 'Web Security', zh: '網站資安' },
  { slug: 'llm', en: 'LLM Apps', zh: '大型語言模型應用' },
  { slug: 'ux', en: 'UX Research', zh: '使用者研究' },
  { slug: 'postgres', en: 'PostgreSQL', zh: 'PostgreSQL' },
  { slug: 'go', en: 'Go', zh: 'Go 語言' },
] as const;

const FORMATS = [
  { en: (topic: string) => `${topic} Workshop`, zh: (topic: string) => `${topic}工作坊`, hours: 4 },
  { en: (topic: string) => `${topic} Meetup`, zh: (topic: string) => `${topic} 小聚`, hours: 2 },
  { en: (topic: string) => `${topic} Study Group`, zh: (topic: string) => `${topic} 讀書會`, hours: 2 },
  { en: (topic: string) => `${topic} Conference`, zh: (topic: string) => `${topic} 年會`, hours: 8 },
] as const;

const VENUES: Record<LocationId, readonly string[]> = {
  taipei: ['台北前端共學空間', '南港軟體園區 二期 C 棟 B1 會議室', '華山1914文創園區 拱廳', '台大集思會議中心 柏拉圖廳'],
  'new-taipei': ['新北青年創業基地 板橋館', 'Linkou Innovation Center, Hall B'],
  taoyuan: ['桃園市青年事務局 青創指揮部', '元智大學 資訊學院 R1102'],
  hsinchu: ['新竹科學園區 創新創業中心 3F', '清華大學 台達館 104 教室'],
  taichung: ['審計新村 共創基地 2F', '台中文化創意產業園區 A11 展演廳'],
  tainan: ['南紡共享空間 5F', '成功大學 資訊系館 65203 教室'],
  kaohsiung: ['駁二藝術特區 大義倉庫 C9', '高雄軟體科技園區 數位內容創意中心'],
  yilan: ['礁溪 湯圍溝 共享辦公室 2F'],
  hualien: ['花蓮文化創意產業園區 第 7 棟'],
};

const START_HOURS = [9, 10, 13, 14, 19] as const;
const FEES_TWD = [0, 0, 0, 300, 500, 800, 1200, 1800] as const;
const CAPACITIES = [20, 30, 40, 60, 100, 200] as const;

/**
 * Makes `count` random events. IDs are `evt-<topic>-<city>-<8 hex>`, unique in
 * practice; dates fall in 2027 with a deadline two days before the start at
 * 23:59:59 local time; a tenth of them are full.
 *
 * @param count how many events, a non-negative integer.
 */
export function generateEvents(count: number): SeedEvent[] {
  const locations = Object.keys(VENUES) as LocationId[];
  const events: SeedEvent[] = [];
  for (let index = 0; index < count; index += 1) {
    const topic = pick(TOPICS);
    const format = pick(FORMATS);
    const location = pick(locations);
    const inChinese = randomInt(2) === 0;
    const start = DateTime.fromObject(
      { year: 2027, month: 1, day: 1, hour: pick(START_HOURS) },
      { zone: 'Asia/Taipei' },
    ).plus({ days: randomInt(364) });
    const end = start.plus({ hours: format.hours });
    const deadline = start.minus({ days: 2 }).set({ hour: 23, minute: 59, second: 59 });
    const capacity = pick(CAPACITIES);
    events.push({
      id: `evt-${topic.slug}-${location}-${randomBytes(4).toString('hex')}`,
      title: inChinese ? format.zh(topic.zh) : format.en(topic.en),
      summary: inChinese
        ? `與在地社群一起交流 ${topic.zh} 的實務經驗，適合想動手做的人。`
        : `Practical ${topic.en} sessions with the local community; bring questions and a laptop.`,
      location,
      venue: pick(VENUES[location]),
      startsAt: isoWithOffset(start),
      endsAt: isoWithOffset(end),
      registrationDeadline: isoWithOffset(deadline),
      feeTwd: pick(FEES_TWD),
      level: pick(EVENT_LEVELS),
      capacity,
      remainingCapacity: randomInt(10) === 0 ? 0 : randomInt(1, capacity + 1),
    });
  }
  return events;
}

function pick<T>(choices: readonly T[]): T {
  const choice = choices[randomInt(choices.length)];
  if (choice === undefined) throw new Error('pick() needs at least one choice.');
  return choice;
}

function isoWithOffset(date: DateTime): string {
  return date.toISO({ suppressMilliseconds: true }) ?? '';
}
