/**
 * @module
 * A page component's life in the browser: whether the script has taken over
 * the markup the server rendered (so buttons that need it can work), and a
 * signal aborted when the page is left (so late answers are dropped).
 */
import { useEffect, useState } from 'preact/hooks';

/**
 * False on the server and in the browser's first render (the one that
 * hydrates the server's markup, which must match it); true from the render
 * after the component is mounted. A button whose click needs the script is
 * `disabled={!enhanced}`, so the person cannot press one that would do nothing.
 */
export function useEnhanced(): boolean {
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  return enhanced;
}

/**
 * An AbortSignal aborted when the component unmounts (the person left the
 * page): pass it to reads, and check it after every await before changing
 * state. Never aborted on the server, where no effect runs.
 */
export function useLeaveSignal(): AbortSignal {
  const [leave] = useState(() => new AbortController());
  useEffect(() => () => leave.abort(), [leave]);
  return leave.signal;
}
