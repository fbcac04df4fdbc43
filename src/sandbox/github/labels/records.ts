import { attached } from "../../core/attached.js";
import type { GithubWorld, Repository } from "../world/records.js";

/**
 * A repository's label. Issues hold the label itself, so a rename shows on every issue that carries
 * it and a delete takes it off them (GitHub's labels are records issues refer to, not names).
 */
export interface Label {
  id: number;
  name: string;
  /** Six hex digits without `#`, as written. */
  color: string;
  description: string | null;
  /** Whether it is one of the labels GitHub gives a new repository. */
  default: boolean;
}

/** A repository's labels by id, in the order they were made. */
export const labelsOf = attached((_repo: Repository) => new Map<number, Label>());

/** Label ids are one sequence across the world. */
export const labelIds = attached((_world: GithubWorld) => ({ next: 1 }));

/**
 * The labels a record holds (an issue's) that the repository still has: a label deleted from the
 * repository is taken off everything that carried it.
 */
export function liveLabels(repo: Repository, carried: readonly Label[]): Label[] {
  const labels = labelsOf(repo);
  return carried.filter((label) => labels.get(label.id) === label);
}
