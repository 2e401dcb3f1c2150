export * from './kubernetesNames';
