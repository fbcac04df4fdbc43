export type Format = "text" | "markdown" | "json";

export const FORMATS: readonly Format[] = ["text", "markdown", "json"];

export interface RenderOptions {
  /** text only: ANSI colors; the caller decides from the TTY and NO_COLOR. */
  color?: boolean;
  /**
   * markdown: the hidden first line(s), HTML comments by which a document is found again and that
   * carry data for machines (a pull-request comment's key and plan digest); default
   * `<!-- forgeplan -->`.
   */
  marker?: string;
  /** markdown: the header line, e.g. "Plan for acme/settings@1a2b3c4". */
  title?: string;
  /** markdown: the commit the plan was made at, shown as "Planned at commit abc1234". */
  commit?: string;
  /** markdown: the most characters the result may have (GitHub's comment limit is 65,536). */
  maxLength?: number;
  /** markdown: where the whole plan can be read when it had to be cut, e.g. the job summary. */
  detailsUrl?: string;
  /**
   * markdown: what a cut says instead of pointing at the job summary, for a plan printed elsewhere
   * (the CLI: "plan with --max-length 0 for all of it").
   */
  cutHint?: string;
  /**
   * The plan is applied with `--allow-plan-errors`: its errors leave the rest applied. Otherwise a
   * plan with errors says apply applies nothing.
   */
  allowPlanErrors?: boolean;
}
