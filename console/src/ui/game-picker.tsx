import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Api } from '../session.js';
import { useRead } from './call.js';
import { Select } from './field.js';
import { ReadState } from './status.js';

/** A studio's games to choose one of (the first by default), and what the screen shows of the chosen one. */
export function GamePicker({ api, children }: { api: Api; children: (game: string) => ComponentChildren }) {
  const games = useRead(() => api.GET('/merchant/games', { params: { query: { page: 0, pageSize: 100 } } }), []);
  const [chosen, setChosen] = useState<string>();
  const codes = games.data?.games.map((game) => game.code) ?? [];
  const game = chosen ?? codes[0];
  if (!game) return <ReadState loading={games.loading} error={games.error ?? (games.data ? 'you have no games yet' : undefined)} what="your games" />;
  return (
    <>
      <Select label="Game" name="game" value={game} options={codes.map((code) => ({ value: code, label: code }))} onValue={setChosen} />
      {children(game)}
    </>
  );
}
