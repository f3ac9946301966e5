/**
 * The deployed casino's game list prose (DEPLOYED.md §2.1): each game's `house_edge` and `payout`
 * as the deployment writes them in `GET /api/v1/games`. Why data of its own: it is the deployment's
 * advertisement, which the live audit holds what the games do against, and it is not what they do
 * (the wheel says "~9.5%" and keeps nearly every stake; coin flip says "1.96x" and pays 1.99). A
 * stand-in publishes these words unless `afp serve --dialect deployed --rules FILE` changes them
 * (`published:`), so a test can give each game words that match what it plays.
 */

/** One game list entry's advertisement. */
export interface PublishedGameWords {
  readonly houseEdge: string;
  readonly payout: string;
}

export const PUBLISHED_GAME_WORDS: Readonly<Record<string, PublishedGameWords>> = {
  coin_flip: { houseEdge: '0.5%', payout: '1.96x' },
  dice: { houseEdge: '0.5%', payout: 'Variable (e.g. over 50 = 1.96x, over 90 = 9.8x)' },
  multiplier: { houseEdge: '0.5%', payout: 'Your target multiplier (1.01x - 1000x)' },
  roulette: { houseEdge: '0.5%', payout: 'Varies by bet type' },
  custom: { houseEdge: '0.5%', payout: 'Calculated: (1 / probability) * 0.98' },
  blackjack: { houseEdge: '~2%', payout: '1x win, 1.5x blackjack, 2x double-down win' },
  crash: { houseEdge: '0.5%', payout: 'Your cash-out multiplier (1.01x - 100x)' },
  plinko: { houseEdge: '~3%', payout: 'Depends on rows + risk level (up to 1000x on 16-row high risk)' },
  slots: { houseEdge: '~4%', payout: '1x (cherry) to 250x (triple 7)' },
  simple_dice: { houseEdge: '8.3%', payout: '5.5x' },
  hilo: { houseEdge: '~4%', payout: '1.05x (easy) to 12x (long shot)' },
  keno: { houseEdge: '~8%', payout: '3.5x (1-spot catch) to 250,000x (10/10 match)' },
  wheel: { houseEdge: '~9.5%', payout: '0x (BUST) / 0.5x / 1x / 1.5x / 2x / 3x / 5x / 10x' },
  scratch_card: { houseEdge: '~10%', payout: '2x (pair) to 50x (triple diamond)' },
  mines: {
    houseEdge: '2.5%',
    payout: 'Scales with risk: 1 mine 1 reveal=1.02x, 3 mines 5 reveals=~6x, 10 mines 10 reveals=~130x',
  },
  video_poker: { houseEdge: '~1.5% (with optimal strategy)', payout: '1x (Jacks or Better) to 800x (Royal Flush)' },
  baccarat: { houseEdge: 'Player 1.24% | Banker 1.06% | Tie 14.4%', payout: 'Player 1:1, Banker 0.95:1, Tie 8:1' },
};
