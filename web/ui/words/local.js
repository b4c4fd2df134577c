// local: hot-seat and computer duels (web/shell/local.js, web/flows/local.js).

export const WORDS = {
  'update-ready': 'A new version of Waving Hands is ready. Your duel is saved; reload when it suits you. ',
  'mode-hotseat': 'Hot-seat',
  'mode-hotseat-hint': 'Two players share this device and pass it between turns.',
  'mode-computer': 'Against the computer',
  'mode-computer-hint': 'You are the first wizard; the engine plays the second.',
  'replay-resume-title': 'A recorded duel',
};
