// Kept while web/remote.js still imports storage from here; the storage lives in web/store/storage.js.
export * from './store/storage.js';
