import { conformance } from "./conformance.js";

conformance("ruleset");
