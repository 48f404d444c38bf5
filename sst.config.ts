/// <reference path="./.sst/platform/config.d.ts" />

// SST refuses top-level imports in this file: everything is imported inside app() and run().
export default $config({
  async app(input) {
    const { isProductionStage } = await import('./core/platform/stages.js');
    const production = isProductionStage(input?.stage ?? '');
    return {
      name: 'game-platform',
      // Production keeps its table and bucket on `sst remove` and refuses to be removed at all.
      removal: production ? 'retain' : 'remove',
      protect: production,
      home: 'aws',
    };
  },
  async run() {
    // infra/api.ts pulls in the functions, which pull in the table, bucket and secrets they are linked to.
    const { apiUrl, heroApiUrl } = await import('./infra/api.js');
    const { files } = await import('./infra/storage.js');
    // The scheduled jobs: the chain indexer, settlement, deletions and the rank snapshots.
    await import('./infra/jobs.js');
    // The consumer that keeps each board's live head, subscribed to the table's stream.
    await import('./infra/rank-pages.js');
    // The consumer that counts the stage overview's day figures, subscribed to the same stream.
    await import('./infra/day-figures.js');
    // Alarms on every function, job, the stream consumer, the jobs' dead-letter queue and both APIs, to the Alarms topic.
    await import('./infra/alarms.js');
    return {
      api: apiUrl,
      heroApi: heroApiUrl,
      filesBucket: files.name,
      filesDomain: files.domain,
    };
  },
});
