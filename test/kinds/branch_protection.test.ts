import { conformance } from "./conformance.js";

conformance("branch_protection");
