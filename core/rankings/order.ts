/**
 * A player's place on a board: the score, when the player reached it (ISO; '' when never stamped), and the
 * player's id. Boards order by score, highest first; equal scores by who reached them first; then by id, so
 * the order is total. The heads (rank-head.ts), the snapshots (rank-snapshot.ts) and settlement (season-scores.ts) all use it.
 */
export interface Standing {
  score: number;
  at: string;
  id: string;
}

/** Negative when `a` ranks above `b`. */
export function compareStandings(a: Standing, b: Standing): number {
  if (a.score !== b.score) return b.score - a.score;
  if (a.at !== b.at) return a.at < b.at ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
