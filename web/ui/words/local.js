// local: hot-seat and computer duels (web/shell/local.js, web/flows/local.js).

export const WORDS = {
  'update-ready': 'A new version of Waving Hands is ready. Your duel is saved; reload when it suits you. ',
};
