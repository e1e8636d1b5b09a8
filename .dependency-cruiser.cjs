/* global module */
/**
 * The floors of src/ (docs/architecture.md "Layers"), checked by `npm run lint:layers`.
 * contracts/ is the ground floor; tracking never sees the bot; adapters and the composition see
 * only the core's ports; inside bot/, kernel/ and money/ are floors every feature stands on, and
 * features meet only through each other's index.ts.
 */
const FEATURES = '(quote|swap|status|deposit|follow|history|catalog|language|help|addresses)';
module.exports = {
  forbidden: [
    {
      name: 'contracts-stand-alone',
      comment: 'contracts/ is the ground floor: it imports nothing else of src/.',
      severity: 'error',
      from: { path: '^src/contracts/' },
      to: { path: '^src/', pathNot: '^src/contracts/' },
    },
    {
      name: 'below-the-bot',
      comment: 'tracking, the API client, i18n, chains and the sandbox never import the bot.',
      severity: 'error',
      from: { path: '^src/(tracking|layerswap|i18n|chain|sandbox|contracts)/' },
      to: { path: '^src/bot/' },
    },
    {
      name: 'adapters-see-the-port',
      comment: 'platforms/ see the core only through its port: bot/core.ts (BotCore) and bot/command-list.ts (the command specs).',
      severity: 'error',
      from: { path: '^src/platforms/' },
      to: { path: '^src/bot/', pathNot: '^src/bot/(core|command-list)\\.ts$' },
    },
    {
      name: 'composition-sees-the-ports',
      comment: 'app/ builds the core (create-core.ts) and hands tracking its renderer (renderer.ts); nothing deeper.',
      severity: 'error',
      from: { path: '^src/(app|cli\\.ts)' },
      to: { path: '^src/bot/', pathNot: '^src/bot/(core|create-core|renderer|command-list)\\.ts$' },
    },
    {
      name: 'kernel-is-a-floor',
      comment: 'bot/kernel and bot/money import no feature and no composition.',
      severity: 'error',
      from: { path: '^src/bot/(kernel|money)/' },
      to: { path: '^src/bot/', pathNot: '^src/bot/(kernel|money)/' },
    },
    {
      name: 'features-meet-through-index',
      comment: 'a feature uses another only through its index.ts, never its internals.',
      severity: 'error',
      from: { path: `^src/bot/${FEATURES}/` },
      to: { path: `^src/bot/${FEATURES}/`, pathNot: ['^src/bot/$1/', `^src/bot/${FEATURES}/index\\.ts$`] },
    },
    {
      name: 'no-loop-between-features',
      comment:
        'features depend on each other one way: a loop between feature folders (quote -> swap -> quote) means what they share belongs in kernel/ or money/.',
      severity: 'error',
      scope: 'folder',
      from: { path: `^src/bot/${FEATURES}$` },
      to: { path: `^src/bot/${FEATURES}$`, circular: true },
    },
    {
      name: 'features-below-the-composition',
      comment: 'features never import the composition (dispatch, create-core, command list, renderer); core.ts is the port they answer to.',
      severity: 'error',
      from: { path: `^src/bot/${FEATURES}/` },
      to: { path: '^src/bot/[^/]+\\.ts$', pathNot: '^src/bot/core\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
