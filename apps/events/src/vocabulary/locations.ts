/**
 * @module The cities events take place in: stable ids (used in URLs, filters and
 * tool input) with display names in English and Traditional Chinese.
 * Isomorphic: the server and the browser pages import it.
 */

/**
 * Every location, in the order the site lists them (north to south, then
 * east), with the other names a search finds it by (臺 spellings need no entry:
 * search reads 臺 as 台).
 */
export const LOCATIONS = [
  { id: 'taipei', name: { en: 'Taipei', zh: '台北' }, alsoKnownAs: ['Taipei City', '台北市'] },
  { id: 'new-taipei', name: { en: 'New Taipei', zh: '新北' }, alsoKnownAs: ['New Taipei City', '新北市'] },
  { id: 'taoyuan', name: { en: 'Taoyuan', zh: '桃園' }, alsoKnownAs: ['Taoyuan City', '桃園市'] },
  { id: 'hsinchu', name: { en: 'Hsinchu', zh: '新竹' }, alsoKnownAs: ['Hsinchu City', '新竹市'] },
  { id: 'taichung', name: { en: 'Taichung', zh: '台中' }, alsoKnownAs: ['Taichung City', '台中市'] },
  { id: 'tainan', name: { en: 'Tainan', zh: '台南' }, alsoKnownAs: ['Tainan City', '台南市'] },
  { id: 'kaohsiung', name: { en: 'Kaohsiung', zh: '高雄' }, alsoKnownAs: ['Kaohsiung City', '高雄市'] },
  { id: 'yilan', name: { en: 'Yilan', zh: '宜蘭' }, alsoKnownAs: ['Ilan', 'Yilan County', '宜蘭縣'] },
  { id: 'hualien', name: { en: 'Hualien', zh: '花蓮' }, alsoKnownAs: ['Hualien County', '花蓮縣'] },
] as const;

/** One location's id, e.g. `"taipei"`. */
export type LocationId = (typeof LOCATIONS)[number]['id'];

/** A display language of location names. */
export type LocationLanguage = 'en' | 'zh';

/** The ids as a non-empty list (for `z.enum`). */
export const LOCATION_IDS = LOCATIONS.map((location) => location.id) as [LocationId, ...LocationId[]];

/** Whether `value` is one of {@link LOCATION_IDS}. */
export function isLocationId(value: string): value is LocationId {
  return (LOCATION_IDS as string[]).includes(value);
}

/**
 * The display name of a location.
 *
 * @param id a known location id.
 * @param language `"en"` (default) or `"zh"` (Traditional Chinese).
 * @example locationName('taichung', 'zh') // "台中"
 */
export function locationName(id: LocationId, language: LocationLanguage = 'en'): string {
  const location = LOCATIONS.find((candidate) => candidate.id === id);
  return location ? location.name[language] : id;
}
