import { ModuleStart } from '../../core/module';
import { NotificationStream } from './services/notification-stream';
import { NotificationTranslator } from './services/notification-translation';
import { createTranslationProvider } from './services/translation-provider';
import { NotificationSettings } from './settings';

/** What the notification services need besides a unit of work. */
export interface NotificationDeps {
  /** Fills Thai and Chinese text from English (TRANSLATE_URL; none: nothing is translated). */
  translator: NotificationTranslator;
  /** The members' live streams of this process: one LISTEN connection, fanned out in memory. */
  stream: NotificationStream;
}

export function notificationDeps({ settings, boss, logger, databaseUrl, orm, config }: ModuleStart<NotificationSettings>): NotificationDeps {
  return {
    translator: new NotificationTranslator(createTranslationProvider(settings.translateUrl, settings.translateApiKey), boss, logger),
    stream: new NotificationStream(databaseUrl, orm, { perMember: config.streams.perMember, total: config.streams.maxOpen }, logger),
  };
}
