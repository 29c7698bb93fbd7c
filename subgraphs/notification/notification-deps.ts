import { ModuleStart } from '../../core/module';
import { NotificationTranslator } from './services/notification-translation';
import { createTranslationProvider } from './services/translation-provider';
import { NotificationSettings } from './settings';

/** What the notification services need besides a unit of work. */
export interface NotificationDeps {
  /** Fills Thai and Chinese text from English (TRANSLATE_URL; none: nothing is translated). */
  translator: NotificationTranslator;
}

export function notificationDeps({ settings, boss, logger }: ModuleStart<NotificationSettings>): NotificationDeps {
  return { translator: new NotificationTranslator(createTranslationProvider(settings.translateUrl, settings.translateApiKey), boss, logger) };
}
