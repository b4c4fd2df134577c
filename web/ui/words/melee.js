// melee: several wizards in one duel (web/flows/melee*.js, web/ui/screens/melee*.js, web/transport/hub*.js).

export const WORDS = {
};
