/**
 * @module The districts of the venues events take place at, each in one
 * location (vocabulary/locations.ts), with names in English and Traditional
 * Chinese. A keyword naming a district finds the events there.
 * Isomorphic: no I/O.
 *
 * English names are the official romanisations (Hanyu Pinyin, as on Taiwan's
 * street signs); a bare name ("Xinyi", "信義") stands for the district, and
 * the suffix stays where the bare name would say nothing or only repeat the
 * city ("East District", "東區", "Hualien City", "花蓮市"). Ids are
 * `<location>-<district>`, the district part lowercase without the suffix.
 * Only districts that a venue of the seed data is in are listed.
 */
import type { LocationId, LocationLanguage } from './locations.ts';

/** One district: its id, the location it is in, and its names. */
export type District = { id: string; location: LocationId; name: { en: string; zh: string } };

/** Every district a venue is in, grouped by location in the order of LOCATIONS. */
export const DISTRICTS = [
  // Taipei International Convention Center, 信義區 co-working spaces
  { id: 'taipei-xinyi', location: 'taipei', name: { en: 'Xinyi', zh: '信義' } },
  // Huashan 1914 Creative Park
  { id: 'taipei-zhongzheng', location: 'taipei', name: { en: 'Zhongzheng', zh: '中正' } },
  // NTU Convention Center (台大集思), Taipei Public Library main branch
  { id: 'taipei-daan', location: 'taipei', name: { en: "Da'an", zh: '大安' } },
  // Nangang Software Park
  { id: 'taipei-nangang', location: 'taipei', name: { en: 'Nangang', zh: '南港' } },
  { id: 'new-taipei-banqiao', location: 'new-taipei', name: { en: 'Banqiao', zh: '板橋' } },
  { id: 'new-taipei-linkou', location: 'new-taipei', name: { en: 'Linkou', zh: '林口' } },
  { id: 'new-taipei-xinzhuang', location: 'new-taipei', name: { en: 'Xinzhuang', zh: '新莊' } },
  // Yuan Ze University; the Youth Affairs Bureau's start-up base (青創指揮部) is at its head office in Zhongli too
  { id: 'taoyuan-zhongli', location: 'taoyuan', name: { en: 'Zhongli', zh: '中壢' } },
  // Aerotropolis, around Taoyuan Airport
  { id: 'taoyuan-dayuan', location: 'taoyuan', name: { en: 'Dayuan', zh: '大園' } },
  // Hsinchu Science Park, National Tsing Hua University, NYCU (Guangfu campus)
  { id: 'hsinchu-east', location: 'hsinchu', name: { en: 'East District', zh: '東區' } },
  // Shen Ji New Village (審計新村)
  { id: 'taichung-west', location: 'taichung', name: { en: 'West District', zh: '西區' } },
  // Taichung Cultural and Creative Industries Park
  { id: 'taichung-south', location: 'taichung', name: { en: 'South District', zh: '南區' } },
  // Taichung International Convention and Exhibition Center
  { id: 'taichung-wuri', location: 'taichung', name: { en: 'Wuri', zh: '烏日' } },
  // Shuinan Central Park
  { id: 'taichung-xitun', location: 'taichung', name: { en: 'Xitun', zh: '西屯' } },
  // National Cheng Kung University, Tainan Creative & Cultural Park, Nan Fang (南紡)
  { id: 'tainan-east', location: 'tainan', name: { en: 'East District', zh: '東區' } },
  // Kaohsiung Exhibition Center, Kaohsiung Software Park, Asia New Bay Area
  { id: 'kaohsiung-qianzhen', location: 'kaohsiung', name: { en: 'Qianzhen', zh: '前鎮' } },
  // The Pier-2 Art Center (駁二)
  { id: 'kaohsiung-yancheng', location: 'kaohsiung', name: { en: 'Yancheng', zh: '鹽埕' } },
  { id: 'yilan-jiaoxi', location: 'yilan', name: { en: 'Jiaoxi', zh: '礁溪' } },
  // Taipingshan National Forest Recreation Area
  { id: 'yilan-datong', location: 'yilan', name: { en: 'Datong', zh: '大同' } },
  // Hualien Cultural and Creative Industries Park
  { id: 'hualien-hualien', location: 'hualien', name: { en: 'Hualien City', zh: '花蓮市' } },
  // Taroko National Park visitor center
  { id: 'hualien-xiulin', location: 'hualien', name: { en: 'Xiulin', zh: '秀林' } },
] as const satisfies readonly District[];

/** One district's id, e.g. `"taipei-xinyi"`. */
export type DistrictId = (typeof DISTRICTS)[number]['id'];

/** The districts of one location, in the order of {@link DISTRICTS}. */
export type DistrictOf<Location extends LocationId> = Extract<(typeof DISTRICTS)[number], { location: Location }>['id'];

/** Whether `value` is one of the ids in {@link DISTRICTS} (exact, case-sensitive). */
export function isDistrictId(value: string): value is DistrictId {
  return DISTRICTS.some((district) => district.id === value);
}

/**
 * The districts of one location, in the order of {@link DISTRICTS}.
 *
 * @param location a location id.
 * @returns the districts (possibly none) whose `location` is `location`.
 * @example districtsOf('yilan').map((district) => district.id) // ["yilan-jiaoxi", "yilan-datong"]
 */
export function districtsOf(location: LocationId): (typeof DISTRICTS)[number][] {
  return DISTRICTS.filter((district) => district.location === location);
}

/**
 * The display name of a district, without its city (pages put the city's
 * name, `locationName`, next to it).
 *
 * @param id a known district id.
 * @param language `"en"` (default) or `"zh"` (Traditional Chinese).
 * @returns the name, or `id` itself for an id no longer in {@link DISTRICTS}.
 * @example districtName('taipei-daan', 'zh') // "大安"
 */
export function districtName(id: DistrictId, language: LocationLanguage = 'en'): string {
  const district = DISTRICTS.find((candidate) => candidate.id === id);
  return district ? district.name[language] : id;
}
