import * as z from "zod";
import {
  pageOf,
  type RepositoryGraphqlRead,
  repositoryConnection,
  RestAnswers,
} from "../graphql-read.js";
import { labelsPath } from "./plan.js";
import type { Labels } from "./settings.js";

/**
 * A repository's labels over GraphQL: `labels` in creation order (the order the REST listing gives,
 * asked for explicitly rather than taken from the schema's default), each with what the REST
 * listing's Label carries of what the planner reads (name, color, description). A label GraphQL
 * shows with an error, or a page that cannot be read, leaves the listing to REST.
 */

const FIELDS = "name color description";
const ORDER = "orderBy: {field: CREATED_AT, direction: ASC}";

const label = z.looseObject({
  name: z.string(),
  color: z.string(),
  description: z.string().nullable(),
});

export const labelGraphql: RepositoryGraphqlRead<Labels> = {
  select: () => `labels(first: 100, ${ORDER}) { ${pageOf(FIELDS)} }`,
  answer: async (part) => {
    const answers = new RestAnswers();
    const all = await repositoryConnection(part, "labels", {
      field: `labels(${ORDER})`,
      nodes: FIELDS,
    });
    const parsed = z.array(label).safeParse(all?.nodes);
    if (all === undefined || all.failed.size > 0 || !parsed.success) return answers;
    answers.listed(
      labelsPath(part.repo),
      parsed.data.map(({ name, color, description }) => ({ name, color, description })),
    );
    return answers;
  },
};
