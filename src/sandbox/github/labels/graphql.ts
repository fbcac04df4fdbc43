import { type Label, labelsOf } from "./records.js";
import type { Repository } from "../world/records.js";
import type { GraphqlContext, GraphqlPart } from "../graphql/context.js";
import { connection, type PageArgs } from "../graphql/connection.js";
import { nodeId } from "../graphql/ids.js";

/**
 * `Repository.labels`: the repository's labels, by creation (the schema's default order, `{field:
 * CREATED_AT, direction: ASC}`; labels are made in id order, as the REST listing gives them) or by
 * name; `query` keeps those whose name or description holds it ("searches labels by name and
 * description", the schema).
 */

export interface LabelArgs extends PageArgs {
  orderBy?: { field: "CREATED_AT" | "NAME"; direction: "ASC" | "DESC" } | null;
  query?: string | null;
}

function ordered(labels: Label[], order: LabelArgs["orderBy"]): Label[] {
  const { field = "CREATED_AT", direction = "ASC" } = order ?? {};
  const sorted = [...labels].sort((a, b) =>
    field === "NAME" ? a.name.toLowerCase().localeCompare(b.name.toLowerCase()) : a.id - b.id,
  );
  return direction === "DESC" ? sorted.reverse() : sorted;
}

function labelObject(ctx: GraphqlContext, repo: Repository, label: Label) {
  return {
    __typename: "Label",
    id: nodeId("Label", label.id),
    name: label.name,
    color: label.color,
    description: label.description,
    isDefault: label.default,
    url: `${ctx.base}/${repo.owner.login}/${repo.name}/labels/${encodeURIComponent(label.name)}`,
    resourcePath: `/${repo.owner.login}/${repo.name}/labels/${encodeURIComponent(label.name)}`,
  };
}

export function labelFields(ctx: GraphqlContext, repo: Repository) {
  return {
    labels: (args: LabelArgs) => {
      const needle = args.query?.toLowerCase();
      const matching = [...labelsOf(repo).values()].filter(
        (label) =>
          needle === undefined ||
          label.name.toLowerCase().includes(needle) ||
          (label.description ?? "").toLowerCase().includes(needle),
      );
      return connection("labels", ordered(matching, args.orderBy), args, (label) =>
        labelObject(ctx, repo, label),
      );
    },
    label: ({ name }: { name: string }) => {
      const wanted = name.toLowerCase();
      const found = [...labelsOf(repo).values()].find(
        (label) => label.name.toLowerCase() === wanted,
      );
      return found ? labelObject(ctx, repo, found) : null;
    },
  };
}

/** This area's part of the schema: its fields of `Repository`. */
export const labelGraphql: GraphqlPart = { repository: labelFields };
