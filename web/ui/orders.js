// Kept while web/remote.js imports draftFromOrders from here: the orders form is ui/orders/form.js,
// its draft model ui/orders/draft.js.
export { createOrders } from './orders/form.js';
export { draftFromOrders } from './orders/draft.js';
