/**
 * @module Where the built widget lives and how the server reads it: one
 * self-contained HTML file made by `npm run build:widget -w apps/giftgenius`
 * (Vite), read at each `resources/read` so a rebuild needs no restart.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** The built widget: apps/giftgenius/dist/widget/gift-finder.html. */
export const WIDGET_FILE = fileURLToPath(new URL('../../dist/widget/gift-finder.html', import.meta.url));

/**
 * Reads the built widget.
 *
 * @throws Error saying how to build it when the file is missing.
 */
export async function readWidgetDocument(file: string = WIDGET_FILE): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error(`The widget is not built: run npm run build:widget -w apps/giftgenius (${file} is missing).`);
    throw error;
  }
}
