import type {
  HttpAuthService,
  LoggerService,
} from '@backstage/backend-plugin-api';
import type { FleetService } from '../fleet';
import type { ModelManagerService } from '../service';

export interface RouterOptions {
  service: ModelManagerService;
  fleet: FleetService;
  httpAuth: HttpAuthService;
  logger: LoggerService;
}
