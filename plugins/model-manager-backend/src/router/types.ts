import type {
  HttpAuthService,
  LoggerService,
} from '@backstage/backend-plugin-api';
import type { ScmIntegrationRegistry } from '@backstage/integration';
import type { FleetService } from '../fleet';
import type { ModelManagerService } from '../service';

export interface RouterOptions {
  service: ModelManagerService;
  fleet: FleetService;
  httpAuth: HttpAuthService;
  logger: LoggerService;
  /** `integrations` of app-config: whether a pull request can be opened (GET /gitops/…). */
  integrations: ScmIntegrationRegistry;
}
