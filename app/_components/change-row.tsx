import type { ChangeFeedResponse } from "@/lib/schemas/changes";
import { Time } from "./time";
import { serverPagePath } from "./format";
import { changeValueText } from "./change-values";

type Change = ChangeFeedResponse["changes"][number];

/** One change-feed record as a table row; the server column is left out where the page is about one server. */
export function ChangeRow({ change: c, showServer = true }: { change: Change; showServer?: boolean }) {
  return (
    <tr data-testid="change" data-kind={c.kind} data-id={c.id}>
      <td>
        <Time iso={c.observed_at} />
      </td>
      <td>
        <code>{c.kind}</code>
      </td>
      {showServer && (
        <td className="wrap">
          <a href={serverPagePath(c.server_name)}>{c.server_name}</a>
        </td>
      )}
      <td className="wrap small">
        <span data-testid="change-before">{changeValueText(c.before)}</span> → <span data-testid="change-after">{changeValueText(c.after)}</span>
      </td>
    </tr>
  );
}
