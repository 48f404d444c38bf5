let codes = 0;

/** A game code no other test or bench run has used. */
export const newCode = (prefix = 'game') => `${prefix}-${++codes}-${Date.now().toString(36)}`;

/** A complete savemerchantgame payload. */
export const gamePayload = (code: string) => ({
  code,
  game_name: `Name of ${code}`,
  describe: 'A game',
  logo: 'merchant/1/logo.png',
  coverImg: 'merchant/1/cover.png',
  dev: 'Dev Team',
  genre: 'rpg',
  platform: ['web'],
  tags: ['fun'],
  images: ['merchant/1/a.png'],
  link: { web: 'https://play.example.com' },
  game_url: 'https://play.example.com',
  releaseDate: '2026-05-01',
});
