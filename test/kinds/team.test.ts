import { conformance } from "./conformance.js";

conformance("team");
