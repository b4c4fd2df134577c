// battle: what the duel shows happening (web/ui/scene/, result cards, the live region).

export const WORDS = {
};
