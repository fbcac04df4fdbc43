import { conformance } from "./conformance.js";

conformance("badge");
