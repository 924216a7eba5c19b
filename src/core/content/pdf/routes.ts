import { route } from '../../operation.js';
import { getChangeRequestPDF } from './operation.js';

/** The PDF export of a change request. */
export const pdfRoutes = [route('GET', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf', getChangeRequestPDF, 200)];
