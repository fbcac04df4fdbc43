import { conformance } from "./conformance.js";

conformance("protected_tags", "free");
