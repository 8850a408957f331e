export { Lab } from './lab';
export type { LabInfo } from './info';
export { HOSTS, NODE_HOSTS, type HostName, type NodeHost } from './layout';
export { HOST_SERVICES, type ServiceName, type UpOptions } from './services';
