/**
 * @module The districts of the venues events take place at, each in one
 * location (vocabulary/locations.ts), with names in English and Traditional
 * Chinese. A keyword naming a district finds the events there.
 */
import type { LocationId } from './locations.ts';

/** One district: its id, the location it is in, and its names. */
export type District = { id: string; location: LocationId; name: { en: string; zh: string } };

/** Every district a venue is in. */
export const DISTRICTS = [
  { id: 'taipei-xinyi', location: 'taipei', name: { en: 'Xinyi', zh: '信義' } },
] as const satisfies readonly District[];

/** One district's id, e.g. `"taipei-xinyi"`. */
export type DistrictId = (typeof DISTRICTS)[number]['id'];
