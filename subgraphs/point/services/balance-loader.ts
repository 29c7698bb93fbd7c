import { BatchLoader } from '../../../core/batch-loader';
import { RequestContext } from '../../../core/context';
import { PointBalance } from '../types/point.types';
import { LedgerService } from './ledger.service';
import { PointService } from './point.service';

/** One balance loader per request, so a page of members costs one balance query. */
export class WeakLoaders {
  private readonly loaders = new WeakMap<RequestContext, BatchLoader<string, PointBalance | undefined>>();

  constructor(private readonly ledger: LedgerService) {}

  for(ctx: RequestContext): BatchLoader<string, PointBalance | undefined> {
    let loader = this.loaders.get(ctx);
    if (!loader) {
      const service = new PointService(ctx.em, this.ledger);
      loader = new BatchLoader((ids) => service.balances(ids), undefined);
      this.loaders.set(ctx, loader);
    }
    return loader;
  }
}
