/**
 * The words a keyword can find an event by besides its own text: the topics
 * (tags) and the districts of venues, and the seed events that carry them.
 * A word names one topic only, no topic is so generic that it finds most
 * events, every event has a topic, and a district always lies in the event's
 * own city, in the curated events and in the generated ones alike.
 */
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { CURATED_EVENTS } from '../src/store/curated-events.ts';
import type { SeedEvent } from '../src/store/event-seeds.ts';
import { generateEvents } from '../src/store/generated-events.ts';
import { DISTRICTS, districtName, districtsOf, isDistrictId } from '../src/vocabulary/districts.ts';
import { LOCATION_IDS } from '../src/vocabulary/locations.ts';
import { isTopicId, TOPICS, topicName } from '../src/vocabulary/topics.ts';

/** Words that describe the form of most events, not what they are about: no topic may be found by them. */
const FORMAT_WORDS = [
  'event',
  'events',
  'workshop',
  'meetup',
  'talk',
  'talks',
  'conference',
  'study group',
  '工作坊',
  '講座',
  '活動',
  '小聚',
  '讀書會',
  '年會',
];
const LOWERCASE_HYPHEN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Every word a topic is found by: both names and its other words. */
function wordsOf(topic: (typeof TOPICS)[number]): string[] {
  return [topic.name.en, topic.name.zh, ...topic.alsoKnownAs];
}

function expectUnique(values: readonly string[]): void {
  const seen = new Set<string>();
  expect(values.filter((value) => seen.size === seen.add(value).size)).toEqual([]);
}

/**
 * What every seed event must satisfy, curated or generated: 1–4 known,
 * distinct topics; a district, when set, in its own city.
 *
 * @returns the ids of the events that do not, with what is wrong.
 */
function topicOrDistrictProblems(events: readonly SeedEvent[]): string[] {
  return events.flatMap((event) => {
    const problems: string[] = [];
    if ((event.topics ?? []).length < 1 || (event.topics ?? []).length > 4) problems.push(`${(event.topics ?? []).length} topics`);
    if (!(event.topics ?? []).every((topic) => isTopicId(topic))) problems.push(`unknown topic in ${(event.topics ?? []).join(', ')}`);
    if (new Set(event.topics ?? []).size !== (event.topics ?? []).length) problems.push('a topic twice');
    const district = event.district;
    if (district !== undefined && !districtsOf(event.location).some((known) => known.id === district)) {
      problems.push(`district ${district} not in ${event.location}`);
    }
    return problems.map((problem) => `${event.id}: ${problem}`);
  });
}

describe('topics', () => {
  it('have unique lowercase-hyphen ids', () => {
    const ids = TOPICS.map((topic) => topic.id);
    expectUnique(ids);
    expect(ids.filter((id) => !LOWERCASE_HYPHEN.test(id))).toEqual([]);
  });

  it('have names and other words that are neither empty nor padded', () => {
    const words = TOPICS.flatMap(wordsOf);
    expect(words.filter((word) => word.trim() === '' || word.trim() !== word)).toEqual([]);
  });

  it('name each word once: no word (any case) finds two topics, and no other word repeats a name', () => {
    const owners = new Map<string, string[]>();
    for (const topic of TOPICS) {
      const words = [...new Set(wordsOf(topic).map((word) => word.toLowerCase()))];
      expect(words.length, topic.id).toBe(new Set([topic.name.en.toLowerCase(), topic.name.zh.toLowerCase()]).size + topic.alsoKnownAs.length);
      for (const word of words) owners.set(word, [...(owners.get(word) ?? []), topic.id]);
    }
    expect([...owners].filter(([, topics]) => topics.length > 1)).toEqual([]);
  });

  it('are not found by words that describe the form of most events', () => {
    const generic = TOPICS.flatMap(wordsOf).filter((word) => FORMAT_WORDS.includes(word.toLowerCase()));
    expect(generic).toEqual([]);
  });

  it('each tag at most a third of the curated events, so a topic narrows the list', () => {
    const crowded = TOPICS.filter((topic) => CURATED_EVENTS.filter((event) => (event.topics ?? []).includes(topic.id)).length * 3 > CURATED_EVENTS.length);
    expect(crowded.map((topic) => topic.id)).toEqual([]);
  });

  it('read in English and Chinese, and only their ids are topic ids', () => {
    expect(topicName('chip-design')).toBe('Chip design');
    expect(topicName('chip-design', 'zh')).toBe('晶片設計');
    expect(topicName('hackathon', 'zh')).toBe('黑客松');
    expect(isTopicId('remote-work')).toBe(true);
    expect(isTopicId('AI')).toBe(false);
    expect(isTopicId('黑客松')).toBe(false);
  });
});

describe('districts', () => {
  it('have unique ids made of their location and a lowercase-hyphen part', () => {
    const ids = DISTRICTS.map((district) => district.id);
    expectUnique(ids);
    for (const district of DISTRICTS) {
      expect(LOCATION_IDS, district.id).toContain(district.location);
      expect(district.id.startsWith(`${district.location}-`), district.id).toBe(true);
      expect(LOWERCASE_HYPHEN.test(district.id), district.id).toBe(true);
    }
  });

  it('have names in both languages that are neither empty nor padded, distinct within a city', () => {
    const names = DISTRICTS.flatMap((district) => [district.name.en, district.name.zh]);
    expect(names.filter((name) => name.trim() === '' || name.trim() !== name)).toEqual([]);
    for (const location of LOCATION_IDS) {
      expectUnique(districtsOf(location).map((district) => district.name.en));
      expectUnique(districtsOf(location).map((district) => district.name.zh));
    }
  });

  it('read in English and Chinese, without their city', () => {
    expect(districtName('taipei-daan')).toBe("Da'an");
    expect(districtName('taipei-daan', 'zh')).toBe('大安');
    expect(districtName('hsinchu-east', 'zh')).toBe('東區');
    expect(districtsOf('yilan').map((district) => district.id)).toEqual(['yilan-jiaoxi', 'yilan-datong']);
    expect(isDistrictId('taipei-xinyi')).toBe(true);
    expect(isDistrictId('xinyi')).toBe(false);
  });

  it('are each the district of some curated venue', () => {
    const used = new Set(CURATED_EVENTS.map((event) => event.district));
    expect(DISTRICTS.filter((district) => !used.has(district.id)).map((district) => district.id)).toEqual([]);
  });
});

describe('curated events', () => {
  it('each have one to four topics and, when set, a district of their own city', () => {
    expect(topicOrDistrictProblems(CURATED_EVENTS)).toEqual([]);
  });

  it('leave the district out only where the venue’s district is unknown', () => {
    const withoutDistrict = CURATED_EVENTS.filter((event) => event.district === undefined);
    expect([...new Set(withoutDistrict.map((event) => event.venue))]).toEqual(['台北前端共學空間']);
  });

  it('put one venue in one district', () => {
    const districtOfVenue = new Map<string, string | undefined>();
    for (const event of CURATED_EVENTS) {
      if (districtOfVenue.has(event.venue)) expect(event.district, event.id).toBe(districtOfVenue.get(event.venue));
      districtOfVenue.set(event.venue, event.district);
    }
  });

  it('are tagged with what they are about', () => {
    const topicsOf = (id: string) => CURATED_EVENTS.find((event) => event.id === id)?.topics;
    expect(topicsOf('evt-chip-design-talk-hsinchu')).toContain('chip-design');
    expect(topicsOf('evt-taoyuan-iot-hackathon')).toEqual(expect.arrayContaining(['hackathon', 'iot']));
    expect(topicsOf('evt-ai-agents-meetup-taipei')).toEqual(expect.arrayContaining(['ai', 'agents']));
    expect(topicsOf('evt-webmcp-intro')).toEqual(expect.arrayContaining(['webmcp', 'ai', 'frontend']));
    expect(topicsOf('evt-python-data-banqiao')).toEqual(expect.arrayContaining(['python', 'data']));
  });
});

describe('generated events', () => {
  const events = generateEvents(5_000);
  const curatedDistrictOfVenue = new Map(CURATED_EVENTS.map((event) => [event.venue, event.district]));

  it('each have one to four topics and, when set, a district of their own city', () => {
    expect(topicOrDistrictProblems(events)).toEqual([]);
  });

  it('are found through their topics by the subject in their title', () => {
    const unfound = events.filter((event) => {
      const words = TOPICS.filter((topic) => (event.topics ?? []).includes(topic.id)).flatMap(wordsOf);
      return !words.some((word) => event.title.toLowerCase().includes(word.toLowerCase()));
    });
    expect(unfound.map((event) => `${event.title}: ${(event.topics ?? []).join(', ')}`)).toEqual([]);
  });

  it('put every venue a curated event also uses in the same district, and others in a known one', () => {
    const misplaced = events.filter((event) =>
      curatedDistrictOfVenue.has(event.venue) ? event.district !== curatedDistrictOfVenue.get(event.venue) : event.district === undefined,
    );
    expect(misplaced.map((event) => `${event.venue}: ${event.district}`)).toEqual([]);
  });

  it('include hackathons, a day long and tagged as such', () => {
    const isHackathon = (event: SeedEvent) => /Hackathon|黑客松/.test(event.title);
    expect(events.some(isHackathon)).toBe(true);
    const inconsistent = events.filter((event) => {
      const hours = DateTime.fromISO(event.endsAt).diff(DateTime.fromISO(event.startsAt), 'hours').hours;
      return (event.topics ?? []).includes('hackathon') !== isHackathon(event) || (hours === 24) !== isHackathon(event);
    });
    expect(inconsistent.map((event) => `${event.title}: ${event.startsAt}–${event.endsAt}`)).toEqual([]);
  });

  it('start in 2027 in Taipei time, with registration closing two days before at 23:59:59', () => {
    const wrong = events.filter((event) => {
      const start = DateTime.fromISO(event.startsAt, { setZone: true });
      const hours = DateTime.fromISO(event.endsAt).diff(start, 'hours').hours;
      const deadline = start.minus({ days: 2 }).set({ hour: 23, minute: 59, second: 59 }).toISO({ suppressMilliseconds: true });
      return (
        ![event.startsAt, event.endsAt, event.registrationDeadline].every((iso) => iso.endsWith('+08:00')) ||
        start.year !== 2027 ||
        ![2, 4, 8, 24].includes(hours) ||
        event.registrationDeadline !== deadline
      );
    });
    expect(wrong.map((event) => `${event.startsAt} ${event.endsAt} ${event.registrationDeadline}`)).toEqual([]);
  });

  it('have distinct ids of the form evt-<subject>-<city>-<8 hex>', () => {
    expectUnique(events.map((event) => event.id));
    expect(events.filter((event) => !/^evt-[a-z-]+-[0-9a-f]{8}$/.test(event.id) || !event.id.includes(`-${event.location}-`))).toEqual([]);
  });
});
