/**
 * "GET /repos/acme/ghost → 404: Not Found", leaving out what is unknown and saying the status once:
 * GitLab's messages start with it ("403 Forbidden"), and a message about an unusable answer already
 * names it ("answered 200 with text/html, not JSON"). Every output that reports a failed request
 * (plan, apply, export, the Action's annotations) words it with this. A problem with a value the
 * configuration wrote is the configuration's: it reads as a configuration error does, positioned
 * where the value was written, with the request that showed it after it (`forgeplan.yaml:12:9:
 * access.users.ghost: "ghost" is not a user (GET /users/ghost → 404)`).
 */
export function describeFailure(
  failure: { request?: string; status?: number; message?: string; written?: string },
  /** How the request and the message are written out (markdown: as code, escaped). */
  style: { request(text: string): string; message(text: string): string } = {
    request: (text) => text,
    message: (text) => text,
  },
): string {
  if (failure.written !== undefined) {
    const { written, ...rest } = failure;
    const shown = style.message(failure.message ?? "");
    const request =
      rest.request === undefined ? "" : ` (${describeFailure({ ...rest, message: "" }, style)})`;
    return `${style.message(written)}: ${shown}${request}`;
  }
  // Status 0 means no answer arrived: there is no status to show.
  const status = failure.status === 0 ? undefined : failure.status;
  const said = messageAfterStatus(status, failure.message ?? "");
  const message = style.message(said);
  if (failure.request === undefined) {
    const where = status === undefined ? "" : String(status);
    return where === "" ? message : message === "" ? where : `${where}: ${message}`;
  }
  const request = style.request(failure.request);
  if (said.startsWith(`answered ${status} `)) return `${request} ${message}`;
  const where = status === undefined ? request : `${request} → ${status}`;
  return message === "" ? where : `${where}: ${message}`;
}

/** The message without a leading repeat of the status ("403 Forbidden" after 403 is "Forbidden"). */
function messageAfterStatus(status: number | undefined, message: string): string {
  return status !== undefined && message.startsWith(`${status} `)
    ? message.slice(String(status).length + 1)
    : message;
}
