import { conformance } from "./conformance.js";

conformance("push_rules");
