/**
 * @module What agents may do (`/autonomy`): for every tool of the site, its
 * effect and whether an agent may run it alone, needs the person, or may
 * never run it, and why (the matrix the pipelines enforce).
 */
import type { AutonomyRow } from 'agentready';

/** The page, from the rows of the autonomy matrix and the words for each autonomy. */
export function AutonomyPage({ rows, words }: { rows: AutonomyRow[]; words: Record<AutonomyRow['autonomy'], string> }) {
  return (
    <section>
      <h1>What agents may do</h1>
      <p>
        An agent you connect acts for you with the tools below. It can never confirm a draft for you: the one-time code it needs to submit comes only from your
        Confirm on the review page.
      </p>
      <table data-testid="autonomy">
        <caption>Every tool of Rawdata requests</caption>
        <thead>
          <tr>
            <th scope="col">Tool</th>
            <th scope="col">Effect</th>
            <th scope="col">Agent</th>
            <th scope="col">Why</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.tool} data-tool={row.tool} data-testid="autonomy-row">
              <th scope="row">
                {row.title}
                <br />
                <code>{row.tool}</code>
              </th>
              <td>{row.effect}</td>
              <td data-testid="autonomy-words">{words[row.autonomy]}</td>
              <td>{row.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
