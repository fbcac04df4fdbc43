import { conformance } from "./conformance.js";

conformance("shared_with_groups");
