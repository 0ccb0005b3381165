/**
 * @module The cities events take place in: stable ids (used in URLs, filters and
 * tool input) with display names in English and Traditional Chinese.
 * Isomorphic: the server and the browser pages import it.
 */

/** Every location, in the order the site lists them (north to south, then east). */
export const LOCATIONS = [
  { id: 'taipei', name: { en: 'Taipei', zh: '台北' } },
  { id: 'new-taipei', name: { en: 'New Taipei', zh: '新北' } },
  { id: 'taoyuan', name: { en: 'Taoyuan', zh: '桃園' } },
  { id: 'hsinchu', name: { en: 'Hsinchu', zh: '新竹' } },
  { id: 'taichung', name: { en: 'Taichung', zh: '台中' } },
  { id: 'tainan', name: { en: 'Tainan', zh: '台南' } },
  { id: 'kaohsiung', name: { en: 'Kaohsiung', zh: '高雄' } },
  { id: 'yilan', name: { en: 'Yilan', zh: '宜蘭' } },
  { id: 'hualien', name: { en: 'Hualien', zh: '花蓮' } },
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
