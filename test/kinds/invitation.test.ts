import { conformance } from "./conformance.js";

conformance("invitation");
