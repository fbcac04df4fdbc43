import { conformance } from "./conformance.js";

conformance("protected_branches", "free");
