import { LoadingMessage } from '@/app/components/request-status';

export default function Loading() {
  return <LoadingMessage label="Loading" />;
}
