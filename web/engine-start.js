// Starts the engine's worker as soon as the page is parsed, before the interface's own module
// graph (app.js and some 25 modules) has arrived: on a slow link that is most of a second
// earlier.  app.js's startEngine() joins the boot already under way (engine.js starts it once),
// and reports its progress and any failure; here a failure is only kept from being "unhandled".
import { startEngine } from './engine.js';

startEngine().catch(() => {});
