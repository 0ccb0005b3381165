/**
 * @module Tells zod not to compile parsers with `Function`: the site's
 * Content-Security-Policy forbids eval, and zod probes for it when it builds
 * an object schema. The page ships no zod of its own (its tool contracts come
 * as data, published-tools.ts); this guards the case where a module the page
 * imports for a constant also builds schemas, which would bring zod back.
 * It costs about 0.1 kB. Import it first in the page's entry.
 *
 * (zod 4 global config, `jitless`).
 */
import { z } from 'zod';

z.config({ jitless: true });
