import { generateEvents } from '../src/store/generated-events.ts';
import { eventSearchColumns } from '../src/store/event-search-index.ts';
let t = performance.now(); const ev = generateEvents(100000); console.log('gen', performance.now() - t);
t = performance.now(); for (const e of ev) eventSearchColumns({ ...e, topics: [] }); console.log('cols', performance.now() - t);
