/** @module `find_books` (read): books whose title or author holds the words. */
import { z } from 'zod';
import { defineShopTool } from './define-shop-tool.ts';

export const findBooks = defineShopTool({
  name: 'find_books',
  title: 'Find books',
  effect: 'read',
  description: 'Finds books whose title or author contains the words. Returns each book: id, title, author and price in USD. An empty list means none matched.',
  input: z.object({ words: z.string().min(1).max(100) }),
  output: z.object({ books: z.array(z.object({ id: z.string(), title: z.string(), author: z.string(), priceUsd: z.number() })) }),
  handler: async ({ words }, { app }) => ({ ok: true, data: { books: app.find(words) } }),
  text: ({ books }) =>
    books.length === 0
      ? 'No book matched.'
      : `Found ${books.length}: ${books.map((book) => `${book.title} by ${book.author} [${book.id}], ${book.priceUsd} USD`).join('; ')}.`,
});
