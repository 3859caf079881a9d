import InterApp
import Testing

@Suite("Abort answers keep what the terminal sends")
struct AbortAnswerFieldsTests {
    @Test("Android's aborted answer with referenceNumber (Viva's Android abort page) is an abort answer that keeps it")
    func androidReferenceNumber() throws {
        let callback = try CallbackParser.parse(
            "mycallbackscheme://result?status=fail&message=(-57) ABORTED&action=ABORT&amount=10&tipAmount=0&referenceNumber=833121"
        )
        #expect(callback.kind == .abort(.aborted))
        #expect(callback.baseOutcome == .success)
        #expect(callback.result["referenceNumber"]?.stringValue == "833121")
        #expect(callback.result["amount"] == .number(JSONNumber(10)))
    }
}
