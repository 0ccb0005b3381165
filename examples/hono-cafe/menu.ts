/**
 * @module The café's own code, before it was agent-ready: its dishes, its
 * guests' favourites and the orders for its kitchen. Kept in memory so the
 * example stays short; a real café keeps them in its database.
 */

/** A dish on the menu. */
export type Dish = { id: string; name: string; vegetarian: boolean; priceEur: number };

/** The menu. */
export const MENU: readonly Dish[] = [
  { id: 'shakshuka', name: 'Shakshuka', vegetarian: true, priceEur: 11 },
  { id: 'ramen', name: 'Shoyu ramen', vegetarian: false, priceEur: 14 },
  { id: 'dal', name: 'Tarka dal', vegetarian: true, priceEur: 10 },
];

/** The café's services, as every tool handler gets them (`call.app`). */
export type Cafe = {
  dishes(options: { vegetarian?: boolean | undefined }): Dish[];
  dish(id: string): Dish | undefined;
  /** Marks a dish as a guest's favourite; answers how many favourites the guest has. */
  favour(guest: string, dishId: string): number;
  /** Sends an order to the kitchen; answers its number. */
  cook(dishId: string, quantity: number): string;
  kitchen: Array<{ dishId: string; quantity: number }>;
};

/** A café with an empty kitchen. */
export function openCafe(): Cafe {
  const favourites = new Map<string, Set<string>>();
  const kitchen: Array<{ dishId: string; quantity: number }> = [];
  return {
    dishes: ({ vegetarian }) => MENU.filter((dish) => vegetarian === undefined || dish.vegetarian === vegetarian),
    dish: (id) => MENU.find((dish) => dish.id === id),
    favour(guest, dishId) {
      const set = favourites.get(guest) ?? new Set<string>();
      set.add(dishId);
      favourites.set(guest, set);
      return set.size;
    },
    cook(dishId, quantity) {
      kitchen.push({ dishId, quantity });
      return `kitchen-${kitchen.length}`;
    },
    kitchen,
  };
}
