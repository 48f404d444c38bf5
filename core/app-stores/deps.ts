import type { PlatformDeps } from '../platform/deps.js';
import type { AppleApiClients, AppleSettings } from './apple-settings.js';
import type { GoogleSettings } from './google-settings.js';

/** What the App Store and Google Play operations need besides the platform's part. */
export interface StoresDeps extends PlatformDeps {
  /** The stage's App Store settings (AppleConfig); undefined where none: the App Store operations answer 503. */
  appStore?: AppleSettings;
  /** The App Store Server API clients, when not the library's own made from `appStore` (core/app-stores/apple-api.ts). */
  appStoreApi?: AppleApiClients;
  /** The stage's Google Play settings (GoogleConfig); undefined where none: google_callback answers 503. */
  googlePlay?: GoogleSettings;
}
