import type { AppDependencies } from './app';
import { ApiKeyAuthenticator } from './domains/api-keys/api-key-authenticator';
import { ApiKeyService } from './domains/api-keys/api-key.service';
import { DeliveryEngine } from './domains/webhooks/delivery-engine';
import { deliveryDepsOf } from './domains/webhooks/delivery-deps';
import { WebhookEventQueue } from './domains/webhooks/webhook-event-queue';
import { WebhookService } from './domains/webhooks/webhook.service';
import { systemResolver } from './domains/webhooks/target-guard';
import { AttendanceService } from './domains/attendance/attendance.service';
import { PaymentService } from './domains/payments/payment.service';
import { DashboardService } from './domains/dashboard/dashboard.service';
import { DownloadLinks } from './domains/exports/download-links';
import { ExportJobService } from './domains/exports/export-jobs';
import { ExportService } from './domains/exports/export.service';
import { LogoFetcher } from './domains/exports/pdf/logo-fetch';
import { PdfRenderer } from './domains/exports/pdf/pdf-renderer';
import { createBotCheck } from './domains/auth/bot-check/bot-check';
import { DesktopHandoffService } from './domains/auth/desktop-handoff.service';
import { LinkAuthService } from './domains/auth/link-auth.service';
import { OneTimeCodes } from './domains/auth/one-time-codes';
import { OtpAuthService } from './domains/auth/otp-auth.service';
import { PasskeyService } from './domains/auth/passkey.service';
import { PasswordAuthService } from './domains/auth/password-auth.service';
import { SessionService } from './domains/auth/session.service';
import { SignedChallenges } from './domains/auth/signed-challenge';
import { SignInSessions } from './domains/auth/sign-in-session';
import { MasterService } from './domains/masters/master.service';
import { OrderService } from './domains/orders/order.service';
import { ProductService } from './domains/products/product.service';
import { UserService } from './domains/users/user.service';
import { SignupService } from './domains/workspace/signup.service';
import { WorkspaceService } from './domains/workspace/workspace.service';
import { createMessenger } from './messaging/messenger';
import { BackgroundTasks, type FailureLog } from './shared/background-tasks';

/** One instance of each domain service, shared by the REST shim and the GraphQL resolvers. */
export function createServices(deps: Pick<AppDependencies, 'config' | 'secrets' | 'fetch' | 'apiKeyCacheTtlMs' | 'resolveHost'> & { log: FailureLog }) {
  const { config, secrets } = deps;
  const fetchImpl = deps.fetch ?? fetch;
  const sessions = new SessionService(secrets.jwtSecret);
  const signIns = new SignInSessions(sessions);
  const codes = new OneTimeCodes(secrets.hashKey);
  const messenger = createMessenger(config, fetchImpl);
  const background = new BackgroundTasks(deps.log);
  const links = new LinkAuthService(codes, messenger, background, signIns, config.publicAppUrl);
  const apiKeyAuthenticator = new ApiKeyAuthenticator(background, deps.apiKeyCacheTtlMs);
  const events = new WebhookEventQueue(config.webhook.maxAttempts);
  const deliveryDeps = deliveryDepsOf(config, secrets, deps.resolveHost);
  const exportJobs = exportJobServiceOf(deps);
  const relyingParty = { id: config.publicAppUrl.hostname, origin: config.publicAppUrl.origin };
  return {
    /** Deliveries in flight; shutdown waits for them. */
    background,
    sessions,
    passwordAuth: new PasswordAuthService(createBotCheck(config, secrets, fetchImpl), signIns, sessions, codes),
    otpAuth: new OtpAuthService(codes, messenger, background, signIns),
    linkAuth: links,
    desktopHandoff: new DesktopHandoffService(codes, signIns),
    passkeys: new PasskeyService(relyingParty, new SignedChallenges(secrets.deriveKey('webauthn-challenge')), secrets.deriveKey('webauthn-user-handle'), signIns),
    signup: new SignupService(sessions, events),
    workspace: new WorkspaceService(),
    users: new UserService(links, events),
    masters: new MasterService(),
    products: new ProductService(),
    orders: new OrderService(secrets.hashKey, events),
    apiKeyAuthenticator,
    apiKeys: new ApiKeyService(apiKeyAuthenticator, messenger, background),
    attendance: new AttendanceService(),
    payments: new PaymentService(),
    dashboard: new DashboardService(),
    exports: exportJobs.exports,
    exportJobs,
    webhooks: new WebhookService(deliveryDeps, new DeliveryEngine(deliveryDeps)),
  };
}

/**
 * The exports and their jobs, for the API and the job worker alike. Logos are fetched under the
 * webhooks' address rules (and their WEBHOOK_ALLOWED_PRIVATE_HOSTS); download links are under
 * PUBLIC_API_URL when it is set.
 */
export function exportJobServiceOf(deps: Pick<AppDependencies, 'config' | 'secrets' | 'resolveHost'>): ExportJobService {
  const logos = new LogoFetcher(deps.resolveHost ?? systemResolver, deps.config.webhook.allowedPrivateHosts);
  return new ExportJobService(new ExportService(new PdfRenderer(), logos), new DownloadLinks(deps.secrets.deriveKey('export-download'), deps.config.publicApiUrl));
}

export type Services = ReturnType<typeof createServices>;
