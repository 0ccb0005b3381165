/**
 * @module Tells zod not to compile parsers with `Function`: the site's
 * Content-Security-Policy forbids eval, and zod probes for it when it builds
 * its first object schema. Import this module before any module that declares
 * schemas (it must be the page entry's first import).
 *
 * (zod 4 global config, `jitless`).
 */
import { z } from 'zod';

z.config({ jitless: true });
