import { createMailer } from '../../core/messaging/mailer';
import { createSmsSender } from '../../core/messaging/sms';
import { ModuleStart } from '../../core/module';
import { ChatappChannel } from './services/channels/chatapp-channel';
import { EmailChannel } from './services/channels/email-channel';
import { HttpSmsSender, SmsChannel } from './services/channels/sms-channel';
import { ClickTracking } from './services/click-tracking';
import { MailTemplateService } from './services/mail-template.service';
import { NotificationStream } from './services/notification-stream';
import { NotificationSupergraph } from './services/notification-supergraph';
import { NotificationTranslator } from './services/notification-translation';
import { createTranslationProvider } from './services/translation-provider';
import { V1NotificationSender } from './services/v1-notification-sender';
import { NotificationSettings } from './settings';

/** What the notification services need besides a unit of work. */
export interface NotificationDeps {
  /** Fills Thai and Chinese text from English (TRANSLATE_URL; none: nothing is translated). */
  translator: NotificationTranslator;
  /** The members' live streams of this process: one LISTEN connection, fanned out in memory. */
  stream: NotificationStream;
  /** Customers and segments, through the supergraph as the notification service. */
  supergraph: NotificationSupergraph;
  /** Sends v1 notifications (started with the domain). */
  sender: V1NotificationSender;
  /** Signs and checks the tracked links of v1 notifications. */
  tracking: ClickTracking;
}

export function notificationDeps({ settings, boss, logger, databaseUrl, orm, config, gateway }: ModuleStart<NotificationSettings>): NotificationDeps {
  const supergraph = NotificationSupergraph.over(config, gateway);
  const tracking = new ClickTracking(config.jwtSecret, config.publicUrl);
  const sms = settings.smsUrl ? new HttpSmsSender(settings.smsUrl, settings.smsApiKey, settings.notifyChannelTimeoutMs) : createSmsSender(config.dataDir, logger);
  const channels = {
    email: new EmailChannel(createMailer(config.smtpUrl, config.mailFrom, config.dataDir, logger, settings.notifyChannelTimeoutMs), () => new MailTemplateService(orm.em.fork())),
    sms: new SmsChannel(sms),
    chatapp_mini_program: new ChatappChannel({
      ...config.chatapp,
      templateId: settings.chatappNotifyTemplateId,
      webviewPage: settings.chatappNotifyWebviewPage,
      timeoutMs: settings.notifyChannelTimeoutMs,
    }),
  };
  return {
    translator: new NotificationTranslator(createTranslationProvider(settings.translateUrl, settings.translateApiKey), boss, logger),
    stream: new NotificationStream(databaseUrl, orm, { perMember: config.streams.perMember, total: config.streams.maxOpen }, logger),
    supergraph,
    sender: new V1NotificationSender(
      databaseUrl,
      supergraph,
      channels,
      tracking,
      { batchSize: settings.notifyBatchSize, retrySchedule: settings.notifyRetrySchedule, channelTimeoutMs: settings.notifyChannelTimeoutMs },
      logger,
    ),
    tracking,
  };
}
