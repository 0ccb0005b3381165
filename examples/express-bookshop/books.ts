/**
 * @module The bookshop's own code, before it was agent-ready: its books, the
 * wish lists of its visitors and its orders. Kept in memory so the example
 * stays short; a real shop keeps them in its database.
 */

/** A book of the shop. */
export type Book = { id: string; title: string; author: string; priceUsd: number };

/** The shop's books, by id. */
export const BOOKS: readonly Book[] = [
  { id: 'dune', title: 'Dune', author: 'Frank Herbert', priceUsd: 12 },
  { id: 'emma', title: 'Emma', author: 'Jane Austen', priceUsd: 9 },
  { id: 'kindred', title: 'Kindred', author: 'Octavia E. Butler', priceUsd: 14 },
];

/** The shop's services, as every tool handler gets them (`call.app`). */
export type Bookshop = {
  find(words: string): Book[];
  book(id: string): Book | undefined;
  /** Adds a book to a visitor's wish list; answers the list's length. */
  wish(visitor: string, bookId: string): number;
  /** Places an order; answers its id. */
  order(bookId: string): string;
  orders: string[];
};

/** A fresh shop with no wishes and no orders. */
export function openBookshop(): Bookshop {
  const wishes = new Map<string, string[]>();
  const orders: string[] = [];
  return {
    find: (words) => BOOKS.filter((book) => `${book.title} ${book.author}`.toLowerCase().includes(words.trim().toLowerCase())),
    book: (id) => BOOKS.find((book) => book.id === id),
    wish(visitor, bookId) {
      const list = wishes.get(visitor) ?? [];
      list.push(bookId);
      wishes.set(visitor, list);
      return list.length;
    },
    order(bookId) {
      orders.push(bookId);
      return `order-${orders.length}`;
    },
    orders,
  };
}
