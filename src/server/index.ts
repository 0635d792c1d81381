import { main } from "./main";
import { mountWeb } from "./web";

await main(mountWeb);
